import { Global, Module } from '@nestjs/common';
import { DatabasePools } from './database-pools.js';
import { PrismaService } from './prisma.service.js';
import { ReadReplica } from './read-replica.js';

@Global()
@Module({
  providers: [DatabasePools, PrismaService, ReadReplica],
  exports: [DatabasePools, PrismaService, ReadReplica],
})
export class PrismaModule {}
