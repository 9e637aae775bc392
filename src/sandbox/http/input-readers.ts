// Typed reads of request bodies and query strings. Every violation is INVALID_ARGUMENT naming the
// field, so an integrator can fix the request without guessing.
import { yuanNumberToFen } from '../../shared/money';
import { ApiError } from './api-error';
import type { JsonObject } from './request-body';

export const CLIENT_REF = /^[A-Za-z0-9_-]{1,64}$/;

const invalid = (message: string): ApiError => new ApiError('INVALID_ARGUMENT', message);

export function requireInt(body: JsonObject, name: string, min = 0): number {
  const value = body[name];
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw invalid(`${name} must be an integer >= ${min}`);
  }
  return value;
}

export function optionalInt(body: JsonObject, name: string, min = 0): number | null {
  return body[name] === undefined || body[name] === null ? null : requireInt(body, name, min);
}

export function requireString(body: JsonObject, name: string, rule: { min?: number; max: number; pattern?: RegExp; trim?: boolean }): string {
  const value = body[name];
  if (typeof value !== 'string') throw invalid(`${name} must be a string`);
  const text = rule.trim ? value.trim() : value;
  const length = [...text].length;
  if (length < (rule.min ?? 1) || length > rule.max) throw invalid(`${name} must have ${rule.min ?? 1} to ${rule.max} characters`);
  if (rule.pattern && !rule.pattern.test(text)) throw invalid(`${name} has an invalid format`);
  return text;
}

export function optionalString(body: JsonObject, name: string, rule: { min?: number; max: number; pattern?: RegExp; trim?: boolean }): string | null {
  return body[name] === undefined || body[name] === null ? null : requireString(body, name, rule);
}

export function optionalStringArray(body: JsonObject, name: string, maxItems: number): string[] {
  const value = body[name];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((item): item is string => typeof item === 'string')) {
    throw invalid(`${name} must be an array of strings`);
  }
  if (value.length > maxItems) throw invalid(`${name} takes at most ${maxItems} items`);
  return value;
}

/** A yuan amount sent as a JSON number with at most two decimals, returned in fen. */
export function optionalYuan(body: JsonObject, name: string): number | null {
  const value = body[name];
  if (value === undefined || value === null) return null;
  const fen = typeof value === 'number' ? yuanNumberToFen(value) : null;
  if (fen === null || fen <= 0) throw invalid(`${name} must be a positive amount in yuan with at most two decimals`);
  return fen;
}

export function queryInt(query: URLSearchParams, name: string, fallback: number | null, min = 0, max = Number.MAX_SAFE_INTEGER): number | null {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  if (!/^-?\d+$/.test(raw)) throw invalid(`${name} must be an integer`);
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min || value > max) throw invalid(`${name} must be between ${min} and ${max}`);
  return value;
}

/**
 * A public resource reference (productRef, variantRef, catalogRef) in the query or the path: one that
 * is not a whole number of its range is INVALID_PUBLIC_REFERENCE (interface v1 §7.2 400002: "invalid, wrong
 * type"), not a generic argument error, so an integrator can tell a broken link from a bad filter.
 */
export function parseRef(raw: string, name: string, min = 1): number {
  const value = /^\d{1,16}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min) throw new ApiError('INVALID_PUBLIC_REFERENCE', `${name} must be an integer >= ${min}`);
  return value;
}

export function queryRef(query: URLSearchParams, name: string, min = 1): number | null {
  const raw = query.get(name);
  return raw === null || raw === '' ? null : parseRef(raw, name, min);
}

export interface Paging {
  page: number;
  pageSize: number;
}

export function readPaging(query: URLSearchParams): Paging {
  return { page: queryInt(query, 'page', 1, 1) ?? 1, pageSize: queryInt(query, 'pageSize', 20, 1, 100) ?? 20 };
}
