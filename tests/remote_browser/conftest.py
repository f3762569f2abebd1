"""The remote table in real browsers (marker remote): see test_hub_table.py."""
