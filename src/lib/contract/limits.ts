/** The numeric limits of spec part 8, in one place for the CLI's validation and the sandbox's. */
export const LIMITS = {
  amountMin: 1000,
  amountMax: 500_000,
  externalIdMax: 128,
  idempotencyKeyMax: 128,
  payerNameMax: 120,
  descriptionMax: 200,
  metadataEntriesMax: 20,
  metadataValueMax: 500,
  listLimitMin: 1,
  listLimitMax: 100,
  listLimitDefault: 20,
  webhookToleranceSeconds: 300,
  webhookTimeoutMs: 10_000,
  /** Retry steps of spec 6.4.5, in seconds. */
  webhookRetryStepsSeconds: [10, 30, 120, 600, 1800, 3600, 10_800, 21_600, 43_200] as const,
  webhookRetryWindowSeconds: 24 * 3600,
  chargeProcessingRetryMs: 1000,
} as const
