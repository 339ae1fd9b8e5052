/** Every document's _id is its public UUID (a string); tenant-scoped collections carry business_id. */
export const tenantDocumentFields = { _id: { type: String, required: true }, business_id: { type: String, required: true } } as const;

export const documentOptions = { versionKey: false, timestamps: false } as const;
