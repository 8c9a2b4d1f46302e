/*
 * powercutfs — a FUSE file system that loses what was not flushed, to simulate a power cut.
 *
 * Usage: powercutfs BACKING MOUNTPOINT [fuse options]   (the test runs it with -f -s)
 *
 * The model is LazyFS's ("When Amnesia Strikes", FAST '24):
 *   - data written to a file stays in this process's memory until that file is fsynced or
 *     fdatasynced; closing the file does not flush it; reads see it;
 *   - metadata operations (create, mkdir, rename, link, unlink, rmdir, symlink, chmod, utimens)
 *     reach the backing folder at once, so a new file that was never flushed exists after a cut
 *     at its final name, empty (what ext4's delayed allocation leaves);
 *   - a cut is this process dying without flushing (SIGKILL), then the mount going away: what
 *     the backing folder holds is what a disk would hold after the power came back. A clean
 *     unmount flushes everything first.
 * Directory fsyncs are accepted and do nothing (renames are already durable here): tests check
 * those by tracing system calls instead.
 *
 * Unflushed data is kept per inode of the backing folder (so it follows renames and hard links),
 * with a descriptor of that inode to flush it through.
 */
#define FUSE_USE_VERSION 31
#define _GNU_SOURCE
#include <fuse.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/time.h>
#include <unistd.h>

static int root = -1; /* the backing folder */

/* A file's unflushed contents. */
struct pending {
    ino_t ino;
    int fd; /* read-write descriptor of the backing inode, to flush through */
    char *data;
    size_t size, capacity;
    struct pending *next;
};

#define BUCKETS 1024
static struct pending *table[BUCKETS];
static size_t pending_bytes;

/* An open file: the backing descriptor and the flags it was opened with. */
struct handle {
    int fd;
    int flags;
};

static const char *rel(const char *path) {
    while (*path == '/') path++;
    return *path ? path : ".";
}

static struct handle *handle_of(struct fuse_file_info *fi) { return (struct handle *)(uintptr_t)fi->fh; }

static struct pending **slot(ino_t ino) {
    struct pending **p = &table[ino % BUCKETS];
    while (*p && (*p)->ino != ino) p = &(*p)->next;
    return p;
}

static void drop(struct pending **p) {
    struct pending *e = *p;
    *p = e->next;
    pending_bytes -= e->capacity;
    close(e->fd);
    free(e->data);
    free(e);
}

/* Forgets the unflushed data of `name`'s inode when the name is its last link (about to go):
 * the inode number may be reused by the backing file system for another file. */
static void forget_last_link(const char *name) {
    struct stat st;
    if (fstatat(root, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode) || st.st_nlink > 1) return;
    struct pending **p = slot(st.st_ino);
    if (*p) drop(p);
}

static int reserve(struct pending *e, size_t size) {
    if (size <= e->capacity) return 0;
    size_t capacity = e->capacity ? e->capacity : 4096;
    while (capacity < size) capacity *= 2;
    char *data = realloc(e->data, capacity);
    if (!data) return -ENOMEM;
    pending_bytes += capacity - e->capacity;
    e->data = data;
    e->capacity = capacity;
    return 0;
}

/* The pending entry of the file open as `fd` (loaded from the backing file on first use). */
static int pending_for(int fd, struct pending **out) {
    struct stat st;
    if (fstat(fd, &st) != 0) return -errno;
    struct pending **p = slot(st.st_ino);
    if (*p) {
        *out = *p;
        return 0;
    }
    char self[64];
    snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
    struct pending *e = calloc(1, sizeof *e);
    if (!e) return -ENOMEM;
    e->ino = st.st_ino;
    e->fd = open(self, O_RDWR | O_CLOEXEC);
    if (e->fd < 0) {
        int err = -errno;
        free(e);
        return err;
    }
    int err = reserve(e, (size_t)st.st_size);
    if (err) {
        close(e->fd);
        free(e);
        return err;
    }
    size_t done = 0;
    while (done < (size_t)st.st_size) {
        ssize_t n = pread(e->fd, e->data + done, (size_t)st.st_size - done, (off_t)done);
        if (n <= 0) break;
        done += (size_t)n;
    }
    e->size = done;
    e->next = NULL;
    *p = e;
    *out = e;
    return 0;
}

/* Writes a file's pending data to the backing folder (an fsync), keeping its times. */
static int flush_entry(struct pending **p) {
    struct pending *e = *p;
    struct stat st;
    fstat(e->fd, &st);
    size_t done = 0;
    while (done < e->size) {
        ssize_t n = pwrite(e->fd, e->data + done, e->size - done, (off_t)done);
        if (n < 0) return -errno;
        done += (size_t)n;
    }
    if (ftruncate(e->fd, (off_t)e->size) != 0) return -errno;
    struct timespec times[2] = {st.st_atim, st.st_mtim};
    futimens(e->fd, times);
    drop(p);
    return 0;
}

/* The file's times change with each write, as on a disk (metadata: at once). */
static void touch(int fd) { futimens(fd, NULL); }

static void *pc_init(struct fuse_conn_info *conn, struct fuse_config *cfg) {
    (void)conn;
    cfg->use_ino = 1;
    cfg->hard_remove = 1;
    cfg->nullpath_ok = 1;
    cfg->negative_timeout = 0;
    return NULL;
}

static void pc_destroy(void *data) {
    (void)data;
    for (int b = 0; b < BUCKETS; b++)
        while (table[b]) flush_entry(&table[b]);
}

static int pc_getattr(const char *path, struct stat *st, struct fuse_file_info *fi) {
    int rc = fi ? fstat(handle_of(fi)->fd, st) : fstatat(root, rel(path), st, AT_SYMLINK_NOFOLLOW);
    if (rc != 0) return -errno;
    if (S_ISREG(st->st_mode)) {
        struct pending *e = *slot(st->st_ino);
        if (e) {
            st->st_size = (off_t)e->size;
            st->st_blocks = (blkcnt_t)((e->size + 511) / 512);
        }
    }
    return 0;
}

static int pc_open_backing(const char *path, int flags, mode_t mode, int create, struct fuse_file_info *fi) {
    int bflags = O_RDWR | O_CLOEXEC | O_NOFOLLOW;
    if (create) bflags |= O_CREAT | (flags & O_EXCL);
    int fd = openat(root, rel(path), bflags, mode);
    if (fd < 0 && errno == EISDIR) return -EISDIR;
    if (fd < 0) return -errno;
    struct handle *h = malloc(sizeof *h);
    if (!h) {
        close(fd);
        return -ENOMEM;
    }
    h->fd = fd;
    h->flags = flags;
    fi->fh = (uint64_t)(uintptr_t)h;
    if (flags & O_TRUNC) {
        struct pending *e;
        int err = pending_for(fd, &e);
        if (err) return err;
        e->size = 0;
        touch(fd);
    }
    return 0;
}

static int pc_open(const char *path, struct fuse_file_info *fi) { return pc_open_backing(path, fi->flags, 0, 0, fi); }

static int pc_create(const char *path, mode_t mode, struct fuse_file_info *fi) {
    return pc_open_backing(path, fi->flags, mode, 1, fi);
}

static int pc_read(const char *path, char *buf, size_t size, off_t off, struct fuse_file_info *fi) {
    (void)path;
    struct handle *h = handle_of(fi);
    struct stat st;
    if (fstat(h->fd, &st) != 0) return -errno;
    struct pending *e = *slot(st.st_ino);
    if (!e) {
        ssize_t n = pread(h->fd, buf, size, off);
        return n < 0 ? -errno : (int)n;
    }
    if ((size_t)off >= e->size) return 0;
    if (size > e->size - (size_t)off) size = e->size - (size_t)off;
    memcpy(buf, e->data + off, size);
    return (int)size;
}

static int pc_write(const char *path, const char *buf, size_t size, off_t off, struct fuse_file_info *fi) {
    (void)path;
    struct handle *h = handle_of(fi);
    struct pending *e;
    int err = pending_for(h->fd, &e);
    if (err) return err;
    if (h->flags & O_APPEND) off = (off_t)e->size;
    size_t end = (size_t)off + size;
    if ((err = reserve(e, end))) return err;
    if ((size_t)off > e->size) memset(e->data + e->size, 0, (size_t)off - e->size);
    memcpy(e->data + off, buf, size);
    if (end > e->size) e->size = end;
    touch(h->fd);
    return (int)size;
}

static int pc_truncate(const char *path, off_t size, struct fuse_file_info *fi) {
    int fd = fi ? handle_of(fi)->fd : openat(root, rel(path), O_RDWR | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return -errno;
    struct pending *e;
    int err = pending_for(fd, &e);
    if (!err) err = reserve(e, (size_t)size);
    if (!err) {
        if ((size_t)size > e->size) memset(e->data + e->size, 0, (size_t)size - e->size);
        e->size = (size_t)size;
        touch(fd);
    }
    if (!fi) close(fd);
    return err;
}

static int pc_fsync(const char *path, int datasync, struct fuse_file_info *fi) {
    (void)path;
    (void)datasync;
    struct stat st;
    if (fstat(handle_of(fi)->fd, &st) != 0) return -errno;
    struct pending **p = slot(st.st_ino);
    return *p ? flush_entry(p) : 0;
}

static int pc_fsyncdir(const char *path, int datasync, struct fuse_file_info *fi) {
    (void)path;
    (void)datasync;
    (void)fi;
    return 0;
}

static int pc_flush(const char *path, struct fuse_file_info *fi) {
    (void)path;
    (void)fi;
    return 0; /* closing does not flush */
}

static int pc_release(const char *path, struct fuse_file_info *fi) {
    (void)path;
    struct handle *h = handle_of(fi);
    close(h->fd);
    free(h);
    return 0;
}

static int pc_opendir(const char *path, struct fuse_file_info *fi) {
    int fd = openat(root, rel(path), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return -errno;
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        return -errno;
    }
    fi->fh = (uint64_t)(uintptr_t)d;
    return 0;
}

static int pc_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off, struct fuse_file_info *fi,
                      enum fuse_readdir_flags flags) {
    (void)path;
    (void)off;
    (void)flags;
    DIR *d = (DIR *)(uintptr_t)fi->fh;
    rewinddir(d);
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL) {
        struct stat st;
        memset(&st, 0, sizeof st);
        st.st_ino = ent->d_ino;
        st.st_mode = (mode_t)(DTTOIF(ent->d_type));
        if (fill(buf, ent->d_name, &st, 0, 0)) break;
    }
    return 0;
}

static int pc_releasedir(const char *path, struct fuse_file_info *fi) {
    (void)path;
    closedir((DIR *)(uintptr_t)fi->fh);
    return 0;
}

static int pc_mkdir(const char *path, mode_t mode) { return mkdirat(root, rel(path), mode) ? -errno : 0; }
static int pc_rmdir(const char *path) { return unlinkat(root, rel(path), AT_REMOVEDIR) ? -errno : 0; }

static int pc_unlink(const char *path) {
    forget_last_link(rel(path));
    return unlinkat(root, rel(path), 0) ? -errno : 0;
}

static int pc_rename(const char *from, const char *to, unsigned int flags) {
    if (!(flags & RENAME_EXCHANGE)) forget_last_link(rel(to));
    return renameat2(root, rel(from), root, rel(to), flags) ? -errno : 0;
}

static int pc_link(const char *from, const char *to) { return linkat(root, rel(from), root, rel(to), 0) ? -errno : 0; }
static int pc_symlink(const char *target, const char *path) { return symlinkat(target, root, rel(path)) ? -errno : 0; }

static int pc_readlink(const char *path, char *buf, size_t size) {
    ssize_t n = readlinkat(root, rel(path), buf, size - 1);
    if (n < 0) return -errno;
    buf[n] = 0;
    return 0;
}

static int pc_chmod(const char *path, mode_t mode, struct fuse_file_info *fi) {
    int rc = fi ? fchmod(handle_of(fi)->fd, mode) : fchmodat(root, rel(path), mode, 0);
    return rc ? -errno : 0;
}

static int pc_chown(const char *path, uid_t uid, gid_t gid, struct fuse_file_info *fi) {
    int rc = fi ? fchown(handle_of(fi)->fd, uid, gid) : fchownat(root, rel(path), uid, gid, AT_SYMLINK_NOFOLLOW);
    return rc ? -errno : 0;
}

static int pc_utimens(const char *path, const struct timespec tv[2], struct fuse_file_info *fi) {
    int rc = fi ? futimens(handle_of(fi)->fd, tv) : utimensat(root, rel(path), tv, AT_SYMLINK_NOFOLLOW);
    return rc ? -errno : 0;
}

static int pc_access(const char *path, int mask) { return faccessat(root, rel(path), mask, 0) ? -errno : 0; }

static int pc_statfs(const char *path, struct statvfs *st) {
    (void)path;
    return fstatvfs(root, st) ? -errno : 0;
}

static const struct fuse_operations operations = {
    .init = pc_init,
    .destroy = pc_destroy,
    .getattr = pc_getattr,
    .open = pc_open,
    .create = pc_create,
    .read = pc_read,
    .write = pc_write,
    .truncate = pc_truncate,
    .fsync = pc_fsync,
    .fsyncdir = pc_fsyncdir,
    .flush = pc_flush,
    .release = pc_release,
    .opendir = pc_opendir,
    .readdir = pc_readdir,
    .releasedir = pc_releasedir,
    .mkdir = pc_mkdir,
    .rmdir = pc_rmdir,
    .unlink = pc_unlink,
    .rename = pc_rename,
    .link = pc_link,
    .symlink = pc_symlink,
    .readlink = pc_readlink,
    .chmod = pc_chmod,
    .chown = pc_chown,
    .utimens = pc_utimens,
    .access = pc_access,
    .statfs = pc_statfs,
};

int main(int argc, char *argv[]) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s BACKING MOUNTPOINT [fuse options]\n", argv[0]);
        return 2;
    }
    root = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (root < 0) {
        perror(argv[1]);
        return 1;
    }
    /* argv without BACKING: the program, MOUNTPOINT, options. */
    argv[1] = argv[0];
    return fuse_main(argc - 1, argv + 1, &operations, NULL);
}
