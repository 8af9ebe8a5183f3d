"""The Textual app. Nothing here is imported by campaigns, models or rules."""
