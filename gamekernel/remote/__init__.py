"""The table across machines: players at their own browsers, the GM's kernel the authority.

`seats` (who plays whom, the GM's asks and reveals, as events), `projection` (what each audience may
see, computed from public facts only), `intents` (a player's action, validated and carried out by the
same Session method as the magic, stamped with who acted), `comm` (the kernel side of the link) and
`server` (a Jupyter Server extension serving the players' page; the page sends intents, never code).
"""
