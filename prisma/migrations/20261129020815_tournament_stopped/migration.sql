-- A tournament stopped because the database's disk filled up: resumable once there is room.
ALTER TABLE tournaments DROP CONSTRAINT tournaments_status_check;
ALTER TABLE tournaments ADD CONSTRAINT tournaments_status_check CHECK (status IN ('created', 'running', 'ended', 'aborted', 'stopped_budget', 'stopped'));
