// The translation configuration as other modules may use it: the string keys of admin texts.
export { adminTextKey } from './xml-config.ts';
