/** Bodies and messages of the API as a client sees them, written out rather than read from src/. */

export const MESSAGES = {
  created: 'Hotspot kullanıcısı başarıyla oluşturuldu',
  updated: 'Kullanıcı başarıyla güncellendi',
  deleted: 'Kullanıcı başarıyla silindi',
  expired: "Kullanıcı ve session'lar başarıyla expire edildi",
} as const;

export const DELETED = { success: true, message: MESSAGES.deleted };
export const NOT_FOUND = { success: false, message: 'Kullanıcı bulunamadı' };
export const FORBIDDEN = { success: false, message: 'Forbidden' };
export const UNAUTHORIZED = { success: false, message: 'Unauthorized' };

/** A 400 body whose `errors` name exactly `fields`, in this order, each with some message. */
export function validationError(...fields: string[]): Record<string, unknown> {
  return {
    success: false,
    message: 'Validation error',
    errors: fields.map((field) => ({ field, message: expect.any(String) })),
  };
}

/** A 403 body whose `errors` name exactly `fields`. */
export function forbiddenNaming(...fields: string[]): Record<string, unknown> {
  return { ...FORBIDDEN, errors: fields.map((field) => ({ field, message: expect.any(String) })) };
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
