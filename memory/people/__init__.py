"""People knowledge for group chats: who each member is, what was observed about them,
and what follows.

- :mod:`directory`: one person per stable platform id (``telegram:42``, ``wechat:<WeChat
  ID or remark>``, ``owner``), the folder slug made from it, and the *label* each speaker
  gets in the notes: a display name two people share becomes ``张三`` and ``张三2``, so a
  note line names exactly one person, and a renamed person keeps their old labels.
- :mod:`observe`: note (and session) lines -> observations about a person, attributed to
  whoever said them.
- :mod:`reasoning`: deduction vs induction: pattern words, hedges and the confidence of an
  induction (pure functions).
- :mod:`card` and :mod:`ledger`: the two files of ``people/<slug>/``.
- :mod:`fold`: the surgical card refresh (one line at a time, conflicts left open).
- :mod:`phase`: the dream phase that runs all of it; :mod:`wording` the model's wording,
  checked by :mod:`verify`.
"""
