-- AlterTable
ALTER TABLE "games" ADD COLUMN     "options" JSONB NOT NULL DEFAULT '{}';
