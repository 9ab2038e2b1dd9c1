-- AlterTable
ALTER TABLE "provider_calls" ADD COLUMN     "queued_ms" INTEGER NOT NULL DEFAULT 0;
