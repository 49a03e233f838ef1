"""The law as data: statutes, calendars, deadline rules, procedures, strictly loaded from rules/."""
