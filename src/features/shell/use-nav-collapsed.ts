'use client';

import { useCallback, useEffect, useState } from 'react';

const KEY = { pages: 'clinflow.nav.collapsed', editor: 'clinflow.nav.collapsed.editor' };

/**
 * Whether the main navigation is collapsed to an icon rail. Two remembered choices: on the pipeline
 * editor, where the canvas needs the width, it starts collapsed; on other pages, expanded.
 */
export function useNavCollapsed(inEditor: boolean): [boolean, (collapsed: boolean) => void] {
  const key = inEditor ? KEY.editor : KEY.pages;
  const fallback = inEditor;
  const [collapsed, setState] = useState(fallback);
  useEffect(() => {
    const stored = window.localStorage.getItem(key);
    setState(stored === null ? fallback : stored === 'true');
  }, [key, fallback]);
  const set = useCallback(
    (value: boolean) => {
      window.localStorage.setItem(key, String(value));
      setState(value);
    },
    [key],
  );
  return [collapsed, set];
}
