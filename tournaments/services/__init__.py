"""The only code that changes tournament state. Each service locks, checks the rules, writes."""
