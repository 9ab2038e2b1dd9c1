import { Module } from '@nestjs/common';
import { LaddersController } from './ladders.controller.js';

/** Ladders over REST (the store comes from the global CoreModule). */
@Module({ controllers: [LaddersController] })
export class LaddersModule {}
