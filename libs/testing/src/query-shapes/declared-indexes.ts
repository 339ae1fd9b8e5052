import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import mongoose, { type Model } from 'mongoose';
import type { DeclaredIndex } from './index-serving';

/** A source file that declares a mongoose model: `model('Name', schema...)` with mongoose imported. */
const DECLARES_MODEL = /\bmodel\s*(<[^>]*>)?\s*\(\s*['"`]/;
const IMPORTS_MONGOOSE = /from\s+['"]mongoose['"]/;

/**
 * The source files of the apps and libraries that declare a mongoose model, found by their text so
 * that a model moved or added anywhere is seen without a list to keep up to date.
 */
export function modelSourceFiles(workspaceRoot: string): string[] {
  return ['apps', 'libs'].flatMap((top) => sourceFiles(path.join(workspaceRoot, top))).filter((file) => {
    const text = readFileSync(file, 'utf8');
    return DECLARES_MODEL.test(text) && IMPORTS_MONGOOSE.test(text);
  });
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'generated' ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') && !/\.(spec|int-spec|d)\.ts$/.test(entry.name) ? [full] : [];
  });
}

/** Every model registered on the default mongoose instance once `files` are loaded. */
export async function loadModels(files: readonly string[]): Promise<Model<any>[]> {
  for (const file of files) await import(file);
  return mongoose.modelNames().map((name) => mongoose.model(name));
}

/** The indexes each model's schema declares (`schema.index()`, `index: true`, `unique: true`) plus `_id`. */
export function declaredIndexesOf(models: readonly Model<any>[]): DeclaredIndex[] {
  const indexes: DeclaredIndex[] = [];
  for (const model of models) {
    const collection = model.collection.collectionName;
    indexes.push({ collection, keys: [['_id', 1]], unique: true });
    for (const [fields, options] of model.schema.indexes()) {
      const keys = Object.entries(fields);
      // Text, hashed and geo indexes serve no equality-sort-range prefix.
      if (keys.every(([, direction]) => direction === 1 || direction === -1)) {
        indexes.push({ collection, keys: keys as [string, number][], unique: options?.unique === true });
      }
    }
  }
  return indexes;
}

/** The indexes the driver creates on a GridFS bucket's collections before its first write. */
export function gridFsIndexes(collection: string): DeclaredIndex[] {
  if (collection.endsWith('.files')) return [{ collection, keys: [['_id', 1]], unique: true }, { collection, keys: [['filename', 1], ['uploadDate', 1]], unique: false }];
  if (collection.endsWith('.chunks')) return [{ collection, keys: [['_id', 1]], unique: true }, { collection, keys: [['files_id', 1], ['n', 1]], unique: true }];
  return [];
}
