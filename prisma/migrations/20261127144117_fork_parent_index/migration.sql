-- Written by hand: what prisma/schema.prisma cannot express (an index on an expression).
-- A game's forks are found by `options->'fork'->>'parent_game_id'` (GET /games/:id lists them on
-- every game page). Partial, so it holds only forks: games that are no fork cost it nothing but the
-- predicate, and `… = 'game_x'` implies the predicate, so the planner uses it.
CREATE INDEX "games_fork_parent_idx" ON "games" ((options->'fork'->>'parent_game_id'), "created_at", "game_id")
  WHERE (options->'fork'->>'parent_game_id') IS NOT NULL;
