-- AlterTable
ALTER TABLE "games" ADD COLUMN     "compacted_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "cold_segments" (
    "game_id" TEXT NOT NULL,
    "first_seq" INTEGER NOT NULL,
    "last_seq" INTEGER NOT NULL,
    "last_turn" INTEGER NOT NULL,
    "seal" TEXT NOT NULL,
    "data" BYTEA NOT NULL,

    CONSTRAINT "cold_segments_pkey" PRIMARY KEY ("game_id","first_seq")
);

-- CreateTable
CREATE TABLE "cold_actions" (
    "game_id" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "seal" TEXT NOT NULL,
    "data" BYTEA NOT NULL,

    CONSTRAINT "cold_actions_pkey" PRIMARY KEY ("game_id")
);

-- AddForeignKey
ALTER TABLE "cold_segments" ADD CONSTRAINT "cold_segments_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("game_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "cold_actions" ADD CONSTRAINT "cold_actions_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("game_id") ON DELETE CASCADE ON UPDATE CASCADE;
