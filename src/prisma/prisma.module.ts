import { Global, Module } from '@nestjs/common';
import { PrismaService } from './prisma.service.js';
import { ReadReplica } from './read-replica.js';

@Global()
@Module({
  providers: [PrismaService, ReadReplica],
  exports: [PrismaService, ReadReplica],
})
export class PrismaModule {}
