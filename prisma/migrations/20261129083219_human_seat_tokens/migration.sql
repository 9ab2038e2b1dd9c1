-- CreateTable
CREATE TABLE "seat_tokens" (
    "game_id" TEXT NOT NULL,
    "player_id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,

    CONSTRAINT "seat_tokens_pkey" PRIMARY KEY ("game_id","player_id")
);

-- AddForeignKey
ALTER TABLE "seat_tokens" ADD CONSTRAINT "seat_tokens_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("game_id") ON DELETE CASCADE ON UPDATE CASCADE;
