import { Schema, model } from 'mongoose';
import { documentOptions } from '../shared/document-fields';

/*
 * Token wallets (AI employees, business vision) as an append-only ledger of charges, one log per
 * wallet: entry `<wallet>:<seq>` is inserted only by the one writer that read entry seq - 1, so
 * every charge is decided knowing exactly the charges before it (an `$inc` on FerretDB 1.x loses
 * concurrent updates). `charged_total` is the running sum; the balance is the funded amount minus it.
 */
export const walletLedgerSchema = new Schema(
  {
    _id: { type: String, required: true },
    business_id: { type: String, required: true },
    wallet_id: { type: String, required: true },
    seq: { type: Number, required: true },
    // Idempotency key of the charge (a retried charge finds its entry and is not applied again).
    operation_id: { type: String, required: true },
    tokens: { type: Number, required: true },
    charged_total: { type: Number, required: true },
    created_at: { type: Date, required: true },
  },
  documentOptions,
);
// Latest entry of a wallet; a charge by its operation id.
walletLedgerSchema.index({ wallet_id: 1, seq: -1 });
walletLedgerSchema.index({ wallet_id: 1, operation_id: 1 });

export const WalletLedgerModel = model('WalletLedger', walletLedgerSchema, 'wallet_ledger');
