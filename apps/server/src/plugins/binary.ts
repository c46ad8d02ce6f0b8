import { z } from 'zod';

/** Response schema of a route that answers with bytes (images, files): documents the route; bytes skip the serializer. */
export const binaryBody = z.custom<Buffer | NodeJS.ReadableStream>().describe('binary');
export const binaryResponse = { 200: binaryBody };
