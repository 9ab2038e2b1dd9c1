-- AlterTable
ALTER TABLE "games" ADD COLUMN     "failure_reason" TEXT,
ADD COLUMN     "run_failures" INTEGER NOT NULL DEFAULT 0;

-- A game whose runner failed for good (see run_failures) is 'failed', not resumed again.
ALTER TABLE "games" DROP CONSTRAINT games_status_check;
ALTER TABLE "games" ADD CONSTRAINT games_status_check CHECK (status IN ('created', 'running', 'ended', 'aborted', 'failed'));
