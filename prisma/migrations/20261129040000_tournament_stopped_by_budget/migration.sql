-- The cost cap's stop is named as the issue asks: `stopped_by_budget` (was `stopped_budget`).
-- Rows stored under the old name are renamed in the same transaction, so an existing database's
-- stopped tournaments stay resumable.
ALTER TABLE tournaments DROP CONSTRAINT tournaments_status_check;
UPDATE tournaments SET status = 'stopped_by_budget' WHERE status = 'stopped_budget';
ALTER TABLE tournaments ADD CONSTRAINT tournaments_status_check CHECK (status IN ('created', 'running', 'ended', 'aborted', 'stopped_by_budget', 'stopped'));
