"""Prepared scenes (`%%scene Crypt`): the GM's notes whose `[marks]` are roll buttons, across rule sets.

`notes` reads the cell into text and marks, `run` turns a mark into its magic's line and call (the
parity a button owes the typed magic), `widget` and `render` show it live and saved, `magics` is the
cell magic.
"""
