"""The table's own operations on the core (core.py) and campaigns (campaign.py): the public Session
(gamekernel/table_session.py) is built on them, with one handle per rule set."""
