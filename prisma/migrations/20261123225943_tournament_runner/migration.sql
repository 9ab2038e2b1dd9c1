-- AlterTable
ALTER TABLE "ratings" ADD COLUMN     "ordinal" DOUBLE PRECISION NOT NULL DEFAULT 0,
ADD COLUMN     "standing" JSON NOT NULL DEFAULT '{}';

-- AlterTable
ALTER TABLE "tournament_games" ADD COLUMN     "error" TEXT,
ADD COLUMN     "key" TEXT NOT NULL,
ADD COLUMN     "seats" JSONB NOT NULL DEFAULT '[]';

-- AlterTable
ALTER TABLE "tournaments" ADD COLUMN     "batch" JSONB;

-- CreateIndex
CREATE UNIQUE INDEX "tournament_games_tournament_id_key_key" ON "tournament_games"("tournament_id", "key");

-- Written by hand: a whole game's log in one call (src/store/append-game.ts), for tournament games
-- whose seats are all deterministic built-ins: they are played in memory and stored in one
-- transaction, so a crash loses at most that game, which is then re-played from its seed.
-- The same guarded head move and inserts as tiltyard_append_v1 (from the game's genesis head),
-- plus every snapshot the game crossed (a JSON array), in the caller's single statement.
CREATE OR REPLACE FUNCTION tiltyard_append_game_v1(
  p_game text, p_prev text, p_last int, p_hash text, p_events json, p_status text,
  p_placements jsonb, p_snapshots json, p_actions json
) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  IF NOT tiltyard_append_v1(p_game, 0, p_prev, p_last, p_hash, p_events, p_status, p_placements, NULL, p_actions) THEN
    RETURN false;
  END IF;
  INSERT INTO snapshots (game_id, seq, state, state_hash, rng)
  SELECT p_game, (s->>'seq')::int, s->'state', s->>'state_hash', (s->'rng')::jsonb
  FROM json_array_elements(p_snapshots) AS s
  ON CONFLICT DO NOTHING;
  RETURN true;
END
$$;
