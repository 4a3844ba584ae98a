"""Data rulesets: rules an MJ writes as data (rules.yaml), with a safe formula language."""
