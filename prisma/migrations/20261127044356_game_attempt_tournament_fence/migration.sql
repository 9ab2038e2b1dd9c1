-- AlterTable
ALTER TABLE "games" ADD COLUMN     "attempt" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "tournaments" ADD COLUMN     "fence" BIGINT NOT NULL DEFAULT 0;
