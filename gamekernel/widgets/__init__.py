"""Widgets (anywidget classes). Imported only when a widget is displayed, so `%load_ext` stays light."""
