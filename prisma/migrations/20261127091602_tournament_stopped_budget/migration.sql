-- A tournament the runner stopped at its cost limit (max_cost_usd): resumable with a higher one.
ALTER TABLE tournaments DROP CONSTRAINT tournaments_status_check;
ALTER TABLE tournaments ADD CONSTRAINT tournaments_status_check CHECK (status IN ('created', 'running', 'ended', 'aborted', 'stopped_budget'));
