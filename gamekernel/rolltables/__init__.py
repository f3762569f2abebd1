"""Rollable tables across rule sets: a GM's own (typed in a cell, or a CSV/JSON/YAML file of the
table folder) and the ones each rule set ships; rolled for the audience the GM names."""
