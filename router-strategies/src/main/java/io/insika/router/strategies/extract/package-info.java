/**
 * The built-in key extractors, one package per extractor type: {@code json-field}, {@code header},
 * {@code query}, {@code cookie} and {@code path-segment}.
 *
 * <p>Rules every one of them keeps: options are validated once in {@code create}; extractors are
 * immutable and thread-safe; {@code extract} never throws; an absent, empty or blank value is no
 * key, so the request falls back to round-robin instead of piling every key-less request onto the
 * one backend that owns {@code ""}.
 */
package io.insika.router.strategies.extract;
