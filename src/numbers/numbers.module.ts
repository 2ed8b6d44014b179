import { Module } from '@nestjs/common';
import { NumbersController } from './numbers.controller.js';

@Module({
  controllers: [NumbersController],
})
export class NumbersModule {}
