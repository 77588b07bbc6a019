import { type DragEvent, useState } from "react";

/**
 * A drop zone for one file: `dragging` while a drag is over it, and the props to spread on its
 * element. `onFile` gets the first dropped file.
 */
export function useFileDrop(onFile: (file: File) => void) {
  const [dragging, setDragging] = useState(false);
  const dropProps = {
    onDragOver: (event: DragEvent) => {
      event.preventDefault();
      setDragging(true);
    },
    onDragLeave: () => setDragging(false),
    onDrop: (event: DragEvent) => {
      event.preventDefault();
      setDragging(false);
      const file = event.dataTransfer.files[0];
      if (file) onFile(file);
    },
  };
  return { dragging, dropProps };
}
