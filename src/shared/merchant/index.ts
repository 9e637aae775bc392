// Interface v1 response schemas (contract §1-10, interface v1 §2.3, 2.4) and the classifiers of their
// enum-like values. Money fields hold integer fen after parsing.
export * from './known-values';
export * from './wire-primitives';
export * from './envelope';
export * from './account';
export * from './catalog';
export * from './template';
export * from './subscription';
export * from './order';
export * from './aftersale';
export * from './webhook-events';
