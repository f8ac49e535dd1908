/**
 * A representation read from the domain together with its modification time, so that the
 * HTTP faces can emit ETag and Last-Modified without knowing what the resource is made of
 * (an expanded order's time is the newest of the order, its items and its user).
 */
export interface Resource<T> {
  body: T;
  /** RFC 3339 date-time of the newest change that shaped `body`. */
  lastModified: string;
}
