import { z } from 'zod';
import { isValidScope } from '@/server/auth/scopes';

const Scope = z.string().refine(isValidScope, 'scopes are admin, read, write, execute or agent/<uuid>:execute');

export const CreateKeyInput = z.object({ name: z.string().trim().min(1).max(100), scopes: z.array(Scope).min(1).max(50) });
export const KeyId = z.object({ id: z.string() });
