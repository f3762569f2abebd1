"""Session operations, one mixin per rule set; Session (gamekernel/session.py) combines them."""
