import type { Validator } from '../../validation/validator';
import type { DocumentKind } from './document-schema';
import {
  validateAliases,
  validateException,
  validateExceptionSettings,
  validatePolicy,
} from './generated/document-schema';

/** DOCUMENT_SCHEMAS, precompiled (scripts/build-validators.js): the validator of each document kind. */
export const DOCUMENT_VALIDATORS: Readonly<Record<DocumentKind, Validator<unknown>>> = {
  Policy: validatePolicy,
  Exception: validateException,
  EnvironmentAliases: validateAliases,
  ExceptionSettings: validateExceptionSettings,
};
