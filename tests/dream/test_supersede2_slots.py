"""Round 12's slot constructions: a job found names where one works now."""

from __future__ import annotations

from memory.dream.judge.single_slots import slot_values, swapped


def test_a_job_found_fills_the_employer() -> None:
    assert "employer" in slot_values("用户：我找到新工作了，在滨江一家游戏公司")
    assert swapped("用户：我找到工作了，在西湖边一家书店", "用户在萧山一家工厂上班") == "employer"
    # the same place named again is no change
    assert swapped("用户：找到工作了，在萧山一家工厂", "用户在萧山一家工厂上班") == ""
    # looking for work names no employer
    assert "employer" not in slot_values("用户还在找工作，想去杭州")
