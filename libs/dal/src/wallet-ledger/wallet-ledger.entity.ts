import type { InferSchemaType } from 'mongoose';
import type { walletLedgerSchema } from './wallet-ledger.schema';

export type WalletLedgerEntity = InferSchemaType<typeof walletLedgerSchema>;
