/* Stubs for every libgit2 and libdbus function ledger calls, so that neither library (nor
 * the dozen it pulls in: Kerberos, mbedTLS, libssh2, libsystemd, …) is loaded when a process
 * starts, only when the first of its functions is called: a command that never touches git
 * or D-Bus (`waterline drink`, `--version`) does not pay for them.
 *
 * Each stub jumps through its slot; the slot first holds the stub's binder, which saves the
 * argument registers, has ledger_lazy_bind (lazy.c) load the library and look the function
 * up, records it in the slot and jumps to it with the arguments restored — so calls work
 * for any signature, variadic ones included. Linux on x86-64 only: elsewhere this file is
 * empty and the libraries are linked as usual (Package.swift).
 *
 * A function used by the code but missing here fails the link ("undefined reference to
 * git_…"): add a LAZY line for it. */
#if defined(__linux__) && defined(__x86_64__)

#define GIT2 0
#define DBUS 1

/* The slot (target, name, library), the name, and the stub and its binder. */
#define LAZY(library, name) \
    .section .data.rel, "aw"; .balign 8; \
    name##_slot: .quad name##_bind; .quad name##_name; .quad library; \
    .section .rodata; name##_name: .asciz #name; \
    .text; .globl name; .type name, @function; .balign 16; \
    name: jmp *name##_slot(%rip); \
    name##_bind: lea name##_slot(%rip), %r11; jmp ledger_lazy_bind_saving_arguments; \
    .size name, . - name

    .text
    .balign 16
/* %r11: the slot. Saves the integer and vector argument registers (and %rax, the vector
 * count of a variadic call), binds, restores them and jumps to the function. The stack is
 * 16-byte aligned at the call, as the ABI wants. */
ledger_lazy_bind_saving_arguments:
    push %rbp
    mov %rsp, %rbp
    push %rdi
    push %rsi
    push %rdx
    push %rcx
    push %r8
    push %r9
    push %rax
    push %r10
    sub $128, %rsp
    movdqu %xmm0, 0(%rsp)
    movdqu %xmm1, 16(%rsp)
    movdqu %xmm2, 32(%rsp)
    movdqu %xmm3, 48(%rsp)
    movdqu %xmm4, 64(%rsp)
    movdqu %xmm5, 80(%rsp)
    movdqu %xmm6, 96(%rsp)
    movdqu %xmm7, 112(%rsp)
    mov %r11, %rdi
    call ledger_lazy_bind@PLT
    mov %rax, %r11
    movdqu 0(%rsp), %xmm0
    movdqu 16(%rsp), %xmm1
    movdqu 32(%rsp), %xmm2
    movdqu 48(%rsp), %xmm3
    movdqu 64(%rsp), %xmm4
    movdqu 80(%rsp), %xmm5
    movdqu 96(%rsp), %xmm6
    movdqu 112(%rsp), %xmm7
    add $128, %rsp
    pop %r10
    pop %rax
    pop %r9
    pop %r8
    pop %rcx
    pop %rdx
    pop %rsi
    pop %rdi
    pop %rbp
    jmp *%r11

LAZY(GIT2, git_attr_get)
LAZY(GIT2, git_attr_value)
LAZY(GIT2, git_blob_create_from_buffer)
LAZY(GIT2, git_blob_free)
LAZY(GIT2, git_blob_lookup)
LAZY(GIT2, git_blob_rawcontent)
LAZY(GIT2, git_blob_rawsize)
LAZY(GIT2, git_buf_dispose)
LAZY(GIT2, git_checkout_options_init)
LAZY(GIT2, git_checkout_tree)
LAZY(GIT2, git_clone)
LAZY(GIT2, git_clone_options_init)
LAZY(GIT2, git_commit_author)
LAZY(GIT2, git_commit_committer)
LAZY(GIT2, git_commit_create)
LAZY(GIT2, git_commit_free)
LAZY(GIT2, git_commit_lookup)
LAZY(GIT2, git_commit_message)
LAZY(GIT2, git_commit_message_encoding)
LAZY(GIT2, git_commit_message_raw)
LAZY(GIT2, git_commit_parent_id)
LAZY(GIT2, git_commit_parentcount)
LAZY(GIT2, git_commit_time)
LAZY(GIT2, git_commit_time_offset)
LAZY(GIT2, git_commit_tree)
LAZY(GIT2, git_commit_tree_id)
LAZY(GIT2, git_config_add_file_ondisk)
LAZY(GIT2, git_config_delete_entry)
LAZY(GIT2, git_config_free)
LAZY(GIT2, git_config_get_int64)
LAZY(GIT2, git_config_get_path)
LAZY(GIT2, git_config_get_string)
LAZY(GIT2, git_config_iterator_free)
LAZY(GIT2, git_config_iterator_new)
LAZY(GIT2, git_config_multivar_iterator_new)
LAZY(GIT2, git_config_new)
LAZY(GIT2, git_config_next)
LAZY(GIT2, git_config_open_level)
LAZY(GIT2, git_config_set_string)
LAZY(GIT2, git_config_snapshot)
LAZY(GIT2, git_credential_userpass_plaintext_new)
LAZY(GIT2, git_error_last)
LAZY(GIT2, git_error_set_str)
LAZY(GIT2, git_fetch_options_init)
LAZY(GIT2, git_graph_ahead_behind)
LAZY(GIT2, git_graph_descendant_of)
LAZY(GIT2, git_ignore_path_is_ignored)
LAZY(GIT2, git_index_add)
LAZY(GIT2, git_index_add_all)
LAZY(GIT2, git_index_add_bypath)
LAZY(GIT2, git_index_clear)
LAZY(GIT2, git_index_entry_stage)
LAZY(GIT2, git_index_entrycount)
LAZY(GIT2, git_index_find_prefix)
LAZY(GIT2, git_index_free)
LAZY(GIT2, git_index_get_byindex)
LAZY(GIT2, git_index_get_bypath)
LAZY(GIT2, git_index_has_conflicts)
LAZY(GIT2, git_index_open)
LAZY(GIT2, git_index_read)
LAZY(GIT2, git_index_read_tree)
LAZY(GIT2, git_index_remove)
LAZY(GIT2, git_index_remove_bypath)
LAZY(GIT2, git_index_set_caps)
LAZY(GIT2, git_index_update_all)
LAZY(GIT2, git_index_write)
LAZY(GIT2, git_index_write_tree)
LAZY(GIT2, git_index_write_tree_to)
LAZY(GIT2, git_libgit2_init)
LAZY(GIT2, git_libgit2_opts)
LAZY(GIT2, git_libgit2_version)
LAZY(GIT2, git_mempack_new)
LAZY(GIT2, git_merge_base)
LAZY(GIT2, git_object_free)
LAZY(GIT2, git_object_id)
LAZY(GIT2, git_object_lookup)
LAZY(GIT2, git_object_peel)
LAZY(GIT2, git_object_type)
LAZY(GIT2, git_odb_add_backend)
LAZY(GIT2, git_odb_backend_pack)
LAZY(GIT2, git_odb_exists)
LAZY(GIT2, git_odb_foreach)
LAZY(GIT2, git_odb_free)
LAZY(GIT2, git_odb_hash)
LAZY(GIT2, git_odb_hashfile)
LAZY(GIT2, git_odb_object_data)
LAZY(GIT2, git_odb_object_free)
LAZY(GIT2, git_odb_object_size)
LAZY(GIT2, git_odb_object_type)
LAZY(GIT2, git_odb_read)
LAZY(GIT2, git_odb_read_header)
LAZY(GIT2, git_odb_write)
LAZY(GIT2, git_oid_equal)
LAZY(GIT2, git_oid_fromstr)
LAZY(GIT2, git_oid_tostr)
LAZY(GIT2, git_push_options_init)
LAZY(GIT2, git_reference_create)
LAZY(GIT2, git_reference_create_matching)
LAZY(GIT2, git_reference_delete)
LAZY(GIT2, git_reference_free)
LAZY(GIT2, git_reference_iterator_free)
LAZY(GIT2, git_reference_iterator_glob_new)
LAZY(GIT2, git_reference_lookup)
LAZY(GIT2, git_reference_name)
LAZY(GIT2, git_reference_name_to_id)
LAZY(GIT2, git_reference_next)
LAZY(GIT2, git_reference_symbolic_target)
LAZY(GIT2, git_reference_target)
LAZY(GIT2, git_reflog_append)
LAZY(GIT2, git_reflog_delete)
LAZY(GIT2, git_reflog_entry_byindex)
LAZY(GIT2, git_reflog_entry_id_new)
LAZY(GIT2, git_reflog_entry_id_old)
LAZY(GIT2, git_reflog_entry_message)
LAZY(GIT2, git_reflog_entrycount)
LAZY(GIT2, git_reflog_free)
LAZY(GIT2, git_reflog_read)
LAZY(GIT2, git_reflog_write)
LAZY(GIT2, git_remote_connect)
LAZY(GIT2, git_remote_connect_options_dispose)
LAZY(GIT2, git_remote_connect_options_init)
LAZY(GIT2, git_remote_create_options_init)
LAZY(GIT2, git_remote_create_with_opts)
LAZY(GIT2, git_remote_disconnect)
LAZY(GIT2, git_remote_download)
LAZY(GIT2, git_remote_fetch)
LAZY(GIT2, git_remote_free)
LAZY(GIT2, git_remote_init_callbacks)
LAZY(GIT2, git_remote_list)
LAZY(GIT2, git_remote_ls)
LAZY(GIT2, git_remote_push)
LAZY(GIT2, git_remote_upload)
LAZY(GIT2, git_repository_config)
LAZY(GIT2, git_repository_config_snapshot)
LAZY(GIT2, git_repository_free)
LAZY(GIT2, git_repository_index)
LAZY(GIT2, git_repository_init_ext)
LAZY(GIT2, git_repository_init_options_init)
LAZY(GIT2, git_repository_odb)
LAZY(GIT2, git_repository_open_ext)
LAZY(GIT2, git_repository_path)
LAZY(GIT2, git_repository_set_head)
LAZY(GIT2, git_repository_set_index)
LAZY(GIT2, git_repository_state)
LAZY(GIT2, git_repository_workdir)
LAZY(GIT2, git_revparse_single)
LAZY(GIT2, git_revwalk_free)
LAZY(GIT2, git_revwalk_hide)
LAZY(GIT2, git_revwalk_new)
LAZY(GIT2, git_revwalk_next)
LAZY(GIT2, git_revwalk_push)
LAZY(GIT2, git_revwalk_sorting)
LAZY(GIT2, git_signature_free)
LAZY(GIT2, git_signature_now)
LAZY(GIT2, git_status_byindex)
LAZY(GIT2, git_status_list_entrycount)
LAZY(GIT2, git_status_list_free)
LAZY(GIT2, git_status_list_new)
LAZY(GIT2, git_status_options_init)
LAZY(GIT2, git_strarray_dispose)
LAZY(GIT2, git_stream_register)
LAZY(GIT2, git_tag_annotation_create)
LAZY(GIT2, git_tag_free)
LAZY(GIT2, git_tag_lookup)
LAZY(GIT2, git_tag_message)
LAZY(GIT2, git_tag_name)
LAZY(GIT2, git_tag_tagger)
LAZY(GIT2, git_transport_register)
LAZY(GIT2, git_transport_remote_connect_options)
LAZY(GIT2, git_transport_smart)
LAZY(GIT2, git_tree_create_updated)
LAZY(GIT2, git_tree_entry_byindex)
LAZY(GIT2, git_tree_entry_bypath)
LAZY(GIT2, git_tree_entry_cmp)
LAZY(GIT2, git_tree_entry_filemode)
LAZY(GIT2, git_tree_entry_free)
LAZY(GIT2, git_tree_entry_id)
LAZY(GIT2, git_tree_entry_name)
LAZY(GIT2, git_tree_entry_type)
LAZY(GIT2, git_tree_entrycount)
LAZY(GIT2, git_tree_free)
LAZY(GIT2, git_tree_lookup)
LAZY(GIT2, git_tree_walk)
LAZY(GIT2, git_treebuilder_free)
LAZY(GIT2, git_treebuilder_insert)
LAZY(GIT2, git_treebuilder_new)
LAZY(GIT2, git_treebuilder_write)

LAZY(DBUS, dbus_address_escape_value)
LAZY(DBUS, dbus_bus_add_match)
LAZY(DBUS, dbus_bus_get_unique_name)
LAZY(DBUS, dbus_bus_register)
LAZY(DBUS, dbus_connection_add_filter)
LAZY(DBUS, dbus_connection_close)
LAZY(DBUS, dbus_connection_dispatch)
LAZY(DBUS, dbus_connection_get_is_connected)
LAZY(DBUS, dbus_connection_open_private)
LAZY(DBUS, dbus_connection_remove_filter)
LAZY(DBUS, dbus_connection_send_with_reply_and_block)
LAZY(DBUS, dbus_connection_set_exit_on_disconnect)
LAZY(DBUS, dbus_connection_set_watch_functions)
LAZY(DBUS, dbus_connection_unref)
LAZY(DBUS, dbus_error_free)
LAZY(DBUS, dbus_error_init)
LAZY(DBUS, dbus_error_is_set)
LAZY(DBUS, dbus_free)
LAZY(DBUS, dbus_message_get_sender)
LAZY(DBUS, dbus_message_get_type)
LAZY(DBUS, dbus_message_is_signal)
LAZY(DBUS, dbus_message_iter_append_basic)
LAZY(DBUS, dbus_message_iter_close_container)
LAZY(DBUS, dbus_message_iter_get_arg_type)
LAZY(DBUS, dbus_message_iter_get_basic)
LAZY(DBUS, dbus_message_iter_get_element_type)
LAZY(DBUS, dbus_message_iter_init)
LAZY(DBUS, dbus_message_iter_init_append)
LAZY(DBUS, dbus_message_iter_next)
LAZY(DBUS, dbus_message_iter_open_container)
LAZY(DBUS, dbus_message_iter_recurse)
LAZY(DBUS, dbus_message_new_method_call)
LAZY(DBUS, dbus_message_unref)
LAZY(DBUS, dbus_watch_get_enabled)
LAZY(DBUS, dbus_watch_get_flags)
LAZY(DBUS, dbus_watch_get_unix_fd)
LAZY(DBUS, dbus_watch_handle)

#endif

    .section .note.GNU-stack, "", @progbits
