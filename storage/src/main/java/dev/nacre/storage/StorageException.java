package dev.nacre.storage;

/** The local store failed (disk full, corrupt files, folder not writable). */
public class StorageException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public StorageException(String message, Throwable cause) {
    super(message, cause);
  }
}
