import { useSyncExternalStore } from 'react'

/** Subscribes a component to an external store such as ListenFeed (one snapshot per change). */
export function useFeed<S>(feed: { subscribe(listener: () => void): () => void; getSnapshot(): S }): S {
  return useSyncExternalStore(feed.subscribe, feed.getSnapshot, feed.getSnapshot)
}
