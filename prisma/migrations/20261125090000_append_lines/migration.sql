-- Written by hand: appends take their rows as lines of tab-separated fields (src/store/row-lines.ts)
-- instead of JSON arrays of row objects. PostgreSQL read a JSON array three times over (the json
-- parameter's own check, json_to_recordset, then each json column's input function); lines are
-- split once (string_to_table, string_to_array) and each field is cast once, into the same rows.
-- An empty field is SQL NULL. tiltyard_append_v2 serves per-step appends and whole games alike
-- (a whole game is one append from seq 0 with several snapshots); the v1 functions go.

-- Decisions, from actions lines: the rows it added (already recorded ones are left as they are).
-- plpgsql, not sql: a non-inlined SQL function is planned again at every call, and per-step
-- appends call this once a step.
CREATE OR REPLACE FUNCTION tiltyard_insert_actions_v1(p_game text, p_actions text)
RETURNS int LANGUAGE plpgsql AS $$
DECLARE
  n int;
BEGIN
  INSERT INTO actions (game_id, seq_before, player_id, attempt, turn, phase, "window", raw, validated,
                       accepted, rejection_code, ts)
  SELECT p_game, f[1]::int, f[2], f[3]::int, f[4]::int, f[5], f[6], NULLIF(f[7], '')::jsonb,
         NULLIF(f[8], '')::jsonb, f[9]::boolean, NULLIF(f[10], ''), f[11]::timestamptz
  FROM string_to_table(p_actions, E'\n') AS line, string_to_array(line, E'\t') AS f
  ON CONFLICT DO NOTHING;
  GET DIAGNOSTICS n = ROW_COUNT;
  RETURN n;
END
$$;

CREATE OR REPLACE FUNCTION tiltyard_append_v2(
  p_game text, p_expected int, p_prev text, p_last int, p_hash text, p_events text,
  p_status text, p_placements jsonb, p_snapshots text, p_actions text
) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  -- The guard a stale writer fails: the head must still be (p_expected, p_prev).
  UPDATE games SET last_seq = p_last, last_hash = p_hash, updated_at = now(),
    status = COALESCE(p_status, status),
    placements = COALESCE(p_placements, placements),
    ended_at = CASE WHEN p_status = 'ended' THEN now() ELSE ended_at END
  WHERE game_id = p_game AND last_seq = p_expected AND last_hash = p_prev;
  IF NOT FOUND THEN
    RETURN false;
  END IF;

  INSERT INTO events (game_id, seq, event_id, schema_version, turn, phase, type, player_id, ts,
                      payload, visibility, rng, annotations, prev_hash, hash)
  SELECT p_game, f[1]::int, f[2], f[3], f[4]::int, f[5], f[6], NULLIF(f[7], ''), f[8]::timestamptz,
         f[9]::json, f[10]::json, NULLIF(f[11], '')::json, NULLIF(f[12], '')::json, f[13], f[14]
  FROM string_to_table(p_events, E'\n') AS line, string_to_array(line, E'\t') AS f;

  IF p_snapshots IS NOT NULL THEN
    INSERT INTO snapshots (game_id, seq, state, state_hash, rng)
    SELECT p_game, f[1]::int, f[2]::json, f[3], f[4]::jsonb
    FROM string_to_table(p_snapshots, E'\n') AS line, string_to_array(line, E'\t') AS f
    ON CONFLICT DO NOTHING;
  END IF;

  IF p_actions IS NOT NULL THEN
    PERFORM tiltyard_insert_actions_v1(p_game, p_actions);
  END IF;

  RETURN true;
END
$$;

DROP FUNCTION IF EXISTS tiltyard_append_game_v1(text, text, int, text, json, text, jsonb, json, json);
DROP FUNCTION IF EXISTS tiltyard_append_v1(text, int, text, int, text, json, text, jsonb, json, json);
