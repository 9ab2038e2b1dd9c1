-- AlterTable: what the server runs a tournament's games with (pace, spectator delay), so a resumed
-- tournament uses the same even before its first game exists. Null for tournaments run outside the
-- server and for those created before this column (the server then reads its first game's options).
ALTER TABLE "tournaments" ADD COLUMN "options" JSONB;
