// Field types every view shares: money in integer fen, times in Unix seconds.
import { z } from 'zod';

export const fen = z.number().int();
export const seconds = z.number().int();
