import type { BusinessScope } from '../shared/business-scope';
import { scopedFilter } from '../shared/business-scope';
import { type UpsertCounts, bulkUpsert, update, upsert } from '../shared/bulk-upsert';
import { insertIfAbsent } from '../shared/duplicate-key';
import type { ApiTokenEntity } from './api-token.entity';
import { ApiTokenModel } from './api-token.schema';

/** A token as the seed (or the admin tool) defines it: its uuid, hash, scopes and whether it is revoked. */
export interface ApiTokenSeedFields {
  id: string;
  tokenSha256: string;
  scopes: readonly string[];
  revoked: boolean;
}

export class ApiTokenRepository {
  /**
   * The token of this hash, whatever its business: authentication starts from the token alone and
   * learns the business from it.
   */
  findByHashAcrossBusinesses(tokenSha256: string): Promise<ApiTokenEntity | null> {
    return ApiTokenModel.findOne({ token_sha256: tokenSha256 }).lean<ApiTokenEntity>().exec();
  }

  /** The token with this uuid, whatever its business (the admin tool revokes by uuid). */
  findByIdAcrossBusinesses(id: string): Promise<ApiTokenEntity | null> {
    return ApiTokenModel.findOne({ _id: id }).lean<ApiTokenEntity>().exec();
  }

  listOfBusiness(scope: BusinessScope): Promise<ApiTokenEntity[]> {
    return ApiTokenModel.find(scopedFilter(scope, {})).sort({ created_at: 1, _id: 1 }).lean<ApiTokenEntity[]>().exec();
  }

  /** False when the uuid or the hash is taken. */
  create(scope: BusinessScope, token: { id: string; tokenSha256: string; scopes: readonly string[]; createdAt: Date }): Promise<boolean> {
    return insertIfAbsent(() =>
      ApiTokenModel.create({
        _id: token.id,
        business_id: scope.businessId,
        token_sha256: token.tokenSha256,
        scopes: token.scopes,
        revoked: false,
        revoked_at: null,
        created_at: token.createdAt,
      }),
    );
  }

  /** Revokes the token (by uuid or hash) unless it is revoked already: the first revocation time stays. */
  async revoke(token: { id: string } | { tokenSha256: string }, revokedAt: Date): Promise<ApiTokenEntity | null> {
    const filter = 'id' in token ? { _id: token.id } : { token_sha256: token.tokenSha256 };
    await ApiTokenModel.updateOne({ ...filter, revoked: false }, { $set: { revoked: true, revoked_at: revokedAt } });
    return ApiTokenModel.findOne(filter).lean<ApiTokenEntity>().exec();
  }

  /** Revocation is a separate conditional update so that revoked_at keeps the first revocation time. */
  upsertMany(scope: BusinessScope, tokens: readonly ApiTokenSeedFields[], now: Date): Promise<UpsertCounts> {
    return bulkUpsert(
      ApiTokenModel,
      tokens.flatMap((token) => [
        upsert(
          scopedFilter(scope, { _id: token.id }),
          { token_sha256: token.tokenSha256, scopes: token.scopes },
          { created_at: now, revoked: token.revoked, revoked_at: token.revoked ? now : null },
        ),
        update(scopedFilter(scope, { _id: token.id, revoked: !token.revoked }), token.revoked ? { revoked: true, revoked_at: now } : { revoked: false, revoked_at: null }),
      ]),
    );
  }
}
