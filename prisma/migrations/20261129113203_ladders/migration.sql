-- CreateTable
CREATE TABLE "ladders" (
    "ladder_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "seed" BIGINT NOT NULL,
    "seats" INTEGER NOT NULL,
    "compact" BOOLEAN NOT NULL DEFAULT false,
    "status" TEXT NOT NULL DEFAULT 'active',
    "options" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ladders_pkey" PRIMARY KEY ("ladder_id")
);

-- CreateTable
CREATE TABLE "ladder_entrants" (
    "ladder_id" TEXT NOT NULL,
    "agent" TEXT NOT NULL,
    "joined_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "joined_at_deal" INTEGER NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL DEFAULT 'active',
    "cause" TEXT,
    "admitted_at" TIMESTAMPTZ(3),
    "max_usd_per_day" DOUBLE PRECISION,
    "max_usd_total" DOUBLE PRECISION,

    CONSTRAINT "ladder_entrants_pkey" PRIMARY KEY ("ladder_id","agent")
);

-- CreateTable
CREATE TABLE "ladder_deals" (
    "ladder_id" TEXT NOT NULL,
    "deal" INTEGER NOT NULL,
    "seed" BIGINT NOT NULL,
    "lineup" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'playing',
    "cause" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "done_at" TIMESTAMPTZ(3),

    CONSTRAINT "ladder_deals_pkey" PRIMARY KEY ("ladder_id","deal")
);

-- CreateTable
CREATE TABLE "ladder_games" (
    "ladder_id" TEXT NOT NULL,
    "game_id" TEXT NOT NULL,
    "deal" INTEGER NOT NULL,
    "rotation" INTEGER NOT NULL,
    "seats" JSONB NOT NULL DEFAULT '[]',
    "error" TEXT,
    "degraded" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "ladder_games_pkey" PRIMARY KEY ("ladder_id","game_id")
);

-- CreateTable
CREATE TABLE "ladder_ratings" (
    "ladder_id" TEXT NOT NULL,
    "deal" INTEGER NOT NULL,
    "agent" TEXT NOT NULL,
    "mu" DOUBLE PRECISION NOT NULL,
    "low" DOUBLE PRECISION,
    "high" DOUBLE PRECISION,
    "games" INTEGER NOT NULL DEFAULT 0,
    "standing" JSON NOT NULL DEFAULT '{}',

    CONSTRAINT "ladder_ratings_pkey" PRIMARY KEY ("ladder_id","deal","agent")
);

-- CreateIndex
CREATE INDEX "ladders_created_at_idx" ON "ladders"("created_at");

-- CreateIndex
CREATE INDEX "ladder_deals_ladder_id_status_idx" ON "ladder_deals"("ladder_id", "status");

-- CreateIndex
CREATE UNIQUE INDEX "ladder_games_game_id_key" ON "ladder_games"("game_id");

-- CreateIndex
CREATE UNIQUE INDEX "ladder_games_ladder_id_deal_rotation_key" ON "ladder_games"("ladder_id", "deal", "rotation");

-- CreateIndex
CREATE INDEX "ladder_ratings_ladder_id_agent_deal_idx" ON "ladder_ratings"("ladder_id", "agent", "deal");

-- AddForeignKey
ALTER TABLE "ladder_entrants" ADD CONSTRAINT "ladder_entrants_ladder_id_fkey" FOREIGN KEY ("ladder_id") REFERENCES "ladders"("ladder_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ladder_deals" ADD CONSTRAINT "ladder_deals_ladder_id_fkey" FOREIGN KEY ("ladder_id") REFERENCES "ladders"("ladder_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ladder_games" ADD CONSTRAINT "ladder_games_ladder_id_fkey" FOREIGN KEY ("ladder_id") REFERENCES "ladders"("ladder_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ladder_games" ADD CONSTRAINT "ladder_games_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("game_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ladder_ratings" ADD CONSTRAINT "ladder_ratings_ladder_id_fkey" FOREIGN KEY ("ladder_id") REFERENCES "ladders"("ladder_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Written by hand: the lifecycles as CHECK constraints (as tournaments').
ALTER TABLE "ladders" ADD CONSTRAINT ladders_status_check CHECK (status IN ('active', 'paused'));
ALTER TABLE "ladder_entrants" ADD CONSTRAINT ladder_entrants_status_check CHECK (status IN ('active', 'retired', 'suspended'));
ALTER TABLE "ladder_deals" ADD CONSTRAINT ladder_deals_status_check CHECK (status IN ('playing', 'done', 'void'));
