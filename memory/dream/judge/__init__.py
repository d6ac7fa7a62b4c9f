"""The dream's judgement of single statements and pairs: who a line is about, its dates,
whether it is durable and of what kind, whether two lines state one fact or one replaces
the other, and how an item is worded. Pure functions over text; no I/O but the bundled
model weights."""
