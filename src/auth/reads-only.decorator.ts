import { SetMetadata } from '@nestjs/common';

export const READS_ONLY = 'pdm:readsOnly';

/**
 * Marks a route whose method is not GET or HEAD but that changes nothing the caller could not
 * read (runs a query, opens or closes a query session): a personal access token with the `read`
 * scope only may call it. Every other such route is refused to those tokens (AuthGuard), so a new
 * write route is safe without anyone thinking of tokens.
 */
export const ReadsOnly = () => SetMetadata(READS_ONLY, true);
