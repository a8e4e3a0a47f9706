// Translation management as other modules may use it (the importer): the job status codes.
export { STATUS, STORED_STATUS_CODES } from './model.ts';
