"""The pure rules of a league: scoring, placements, tie-breaks, the rating."""
