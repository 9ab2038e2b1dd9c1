import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { ErrorFilter } from './error-filter.js';

/** Registers the error filter for the whole app (unknown routes and body-parser errors included). */
@Module({ providers: [{ provide: APP_FILTER, useClass: ErrorFilter }] })
export class ErrorsModule {}
